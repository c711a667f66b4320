import { EventPattern, MessagePattern } from '@nestjs/microservices';
import type { EventSubject, RequestSubject } from '@antidote/contracts';

/** Handles a request subject; replicas in the same queue group share the requests. */
export const OnRequest = (subject: RequestSubject, queue: string): MethodDecorator => MessagePattern(subject, { queue });

/** Handles an event subject; with a queue group one replica gets each event, without one every replica does. */
export const OnEvent = (subject: EventSubject, queue?: string): MethodDecorator => EventPattern(subject, queue ? { queue } : {}) as MethodDecorator;
