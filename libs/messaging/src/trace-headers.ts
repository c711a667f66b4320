import { context, propagation, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { Headers } from '@antidote/contracts';

const setter: TextMapSetter<MsgHdrs> = {
  set: (carrier, key, value) => carrier.set(key, value),
};
const getter: TextMapGetter<MsgHdrs | undefined> = {
  get: (carrier, key) => carrier?.get(key) || undefined,
  keys: (carrier) => (carrier ? [...carrier.keys()] : []),
};

/**
 * Headers for an outgoing message: the active trace context as W3C `traceparent` (whatever
 * OpenTelemetry SDK is registered; none → no header) and the correlation id.
 */
export function outgoingHeaders(correlationId?: string, active: Context = context.active()): MsgHdrs {
  const carrier = natsHeaders();
  propagation.inject(active, carrier, setter);
  if (correlationId) carrier.set(Headers.correlationId, correlationId);
  return carrier;
}

/** The trace context a received message carries (the root context when it carries none). */
export function incomingContext(carrier: MsgHdrs | undefined): Context {
  return propagation.extract(context.active(), carrier, getter);
}

export function correlationIdOf(carrier: MsgHdrs | undefined): string | undefined {
  return carrier?.get(Headers.correlationId) || undefined;
}
