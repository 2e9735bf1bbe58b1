/**
 * The one rule every adapter follows: a request answered with a 4xx was handled (bad input, not
 * found, unauthorised): it is the client's error, not the service's, and keeps its level.
 */
export function isClientErrorStatus(statusCode: number | undefined): boolean {
  return statusCode !== undefined && statusCode >= 400 && statusCode < 500;
}
