/** A loader that fails: its observation and the request's root are marked ERROR. */
export function loader() {
  throw new Error('loader exploded');
}

export default function Boom() {
  return <p>never</p>;
}
