// obs as its README sets it up; $COLD_EXPORT_MODE picks the export mode (the default batches and
// flushes after each response).
import { registerObs } from '@obs/next';

export function register() {
  registerObs(process.env.COLD_EXPORT_MODE ? { exportMode: process.env.COLD_EXPORT_MODE } : {});
}

export { onRequestError } from '@obs/next';
