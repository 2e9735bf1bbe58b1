import { obsHandle, obsHandleError } from '@obs/sveltekit';

// The lines of @obs/sveltekit.
export const handle = obsHandle({ identify: (event) => ({ userId: event.request.headers.get('x-user-id') ?? undefined }) });
export const handleError = obsHandleError();
