// obs's span processor is an SDK 3 span processor to TypeScript too (strict, library types checked).
import { ObsSpanProcessor } from '@obs/core';
import { TracerProvider } from '@opentelemetry/sdk-trace';

export const provider = new TracerProvider({ spanProcessors: [new ObsSpanProcessor()] });
