import { connection } from 'next/server';

/** A server component that throws at request time: `onRequestError` records it (routeType render). */
export default async function Broken() {
  await connection();
  throw new Error('server component failed to render');
}
