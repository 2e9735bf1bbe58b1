import { obsNitroPlugin } from '@obs/nuxt';

// The one line of @obs/nuxt.
export default defineNitroPlugin(obsNitroPlugin({ identify: (event) => ({ userId: getHeader(event, 'x-user-id') }) }));
