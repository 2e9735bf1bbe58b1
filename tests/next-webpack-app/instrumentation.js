// obs on the Node.js runtime only, as @obs/next's README shows for apps with Edge routes: a static
// import here would be bundled into every Edge function beside its route (a second copy of
// @obs/core there); an Edge route's withObs sets obs up itself.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') (await import('@obs/next')).registerObs({ serviceName: 'next-webpack-app' });
}

export async function onRequestError(...args) {
  if (process.env.NEXT_RUNTIME === 'nodejs') await (await import('@obs/next')).onRequestError(...args);
}
