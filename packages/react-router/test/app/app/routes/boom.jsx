export function loader() {
  throw new Error('loader exploded');
}

export default function Boom() {
  return <p>never</p>;
}
