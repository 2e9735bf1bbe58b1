import { answer } from '../../answer';

export default defineEventHandler(async (event) => {
  const { message } = await readBody<{ message: string }>(event);
  return { id: getRouterParam(event, 'id'), answer: await answer(message) };
});
