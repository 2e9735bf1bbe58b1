// @opentelemetry/api alone, the one package obs loads besides its own (a peer every OpenTelemetry
// stack loads too): its share of the other variants' cost.
import { trace } from '@opentelemetry/api';

globalThis.coldMark?.('imported');
trace.getTracer('cold-start');
