/** A page with no loader and no action: no route handler tells obsInstrumentation() its pattern on 7.x. */
export default function About() {
  return <p>About</p>;
}
