import { json } from '@sveltejs/kit';
import { answer } from '../../../lib/answer.js';

export async function POST({ request }) {
  const { message } = await request.json();
  return json({ answer: await answer(message) });
}
