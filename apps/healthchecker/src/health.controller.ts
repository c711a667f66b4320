import { Controller, Inject } from '@nestjs/common';
import {
  QueueGroups,
  RequestSubjects,
  type HealthCheckReply,
  type HealthCheckRequest,
  type WaitReachableReply,
  type WaitReachableRequest,
} from '@antidote/contracts';
import { OnRequest, RequestPayload } from '@antidote/messaging';
import { HealthService } from './health.service.js';

@Controller()
export class HealthController {
  constructor(@Inject(HealthService) private readonly health: HealthService) {}

  @OnRequest(RequestSubjects.healthCheck, QueueGroups.healthchecker)
  check(@RequestPayload(RequestSubjects.healthCheck) request: HealthCheckRequest): Promise<HealthCheckReply> {
    return this.health.check(request);
  }

  @OnRequest(RequestSubjects.healthWaitReachable, QueueGroups.healthchecker)
  waitReachable(@RequestPayload(RequestSubjects.healthWaitReachable) request: WaitReachableRequest): Promise<WaitReachableReply> {
    return this.health.waitReachable(request);
  }
}
