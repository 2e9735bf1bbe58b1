// POST /api/chat { question } -> { answer }, without tracing (the baseline of ../obs).
async function answer(question) {
  await new Promise((resolve) => setImmediate(resolve));
  return String(question).includes('Portugal') ? 'Lisbon' : 'unknown';
}

export async function POST(req) {
  const { question } = await req.json();
  return Response.json({ answer: await answer(question) });
}
