// Baseline: a hello-world Worker.
export default {
  fetch: () => new Response('hello'),
};
