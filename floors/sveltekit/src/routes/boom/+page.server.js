export function load() {
  throw new Error('load exploded');
}
