import { redirect } from 'react-router';

/** An action that answers with a redirect (a status only obsMiddleware() sees on 7.x). */
export function action() {
  throw redirect('/about');
}

export default function Go() {
  return <p>Go</p>;
}
