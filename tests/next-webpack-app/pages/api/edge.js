// An Edge API route (Pages Router; webpack's build of an App Router Edge route handler fails in
// Next.js 16.4 with or without obs): withObs sets obs up on the edge runtime itself.
import { observe } from '@obs/core';
import { withObs } from '@obs/next';

export const config = { runtime: 'edge' };

const classify = observe(async (text) => (text.trim().endsWith('?') ? 'question' : 'statement'), { name: 'classify', asType: 'chain' });

export default withObs(async (req) => Response.json({ kind: await classify(new URL(req.url).searchParams.get('text') ?? '') }), {
  route: '/api/edge',
});
