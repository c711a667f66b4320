import { Injectable, type PipeTransform } from '@nestjs/common';
import { Payload, RpcException } from '@nestjs/microservices';
import { eventContracts, requestContracts, type EventSubject, type RequestSubject } from '@antidote/contracts';
import type { z } from 'zod';
import { parseContract, toErrorReply } from '../bus.codec.js';
import { ContractViolationError } from '../bus.error.js';
import { UndecodableBody } from './bus-wire.js';

/** Validates an inbound payload against its subject's contract; a bad one becomes an INVALID_PAYLOAD reply. */
@Injectable()
export class ContractPipe implements PipeTransform {
  constructor(
    private readonly schema: z.ZodType,
    private readonly subject: string,
  ) {}

  transform(value: unknown): unknown {
    try {
      if (value instanceof UndecodableBody) throw new ContractViolationError(this.subject, [{ path: '', message: value.problem }]);
      return parseContract(this.schema, this.subject, value);
    } catch (error) {
      throw new RpcException(toErrorReply(error).error);
    }
  }
}

/** `@RequestPayload(subject)`: the validated request of a `@OnRequest(subject)` handler. */
export const RequestPayload = (subject: RequestSubject): ParameterDecorator => Payload(new ContractPipe(requestContracts[subject].request, subject));

/** `@EventPayload(subject)`: the validated event of an `@OnEvent(subject)` handler. */
export const EventPayload = (subject: EventSubject): ParameterDecorator => Payload(new ContractPipe(eventContracts[subject], subject));
