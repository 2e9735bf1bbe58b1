/**
 * A base URL obs can use, and URLs that never show credentials: a user name or password in a URL
 * (`http://user:PASS@host`) is replaced by `***` wherever obs writes the URL. Free of Node.js
 * built-ins (the browser client checks its base URL with it).
 */

/** `scheme://user:password@` in any text. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi;

/** `text` with the user name and password of every URL in it replaced by `***`. */
export function redactUrlCredentials(text: string): string {
  return text.includes('@') ? text.replace(USERINFO, '$1***@') : text;
}

/**
 * Why `url` cannot be a base URL, or undefined when it can: it must parse, be http or https,
 * and hold no user name or password (obs authenticates with its keys in the Authorization
 * header, so it could not also send those; `fetch` refuses such URLs outright).
 */
export function baseUrlProblem(url: string, name = 'baseUrl (OBS_BASE_URL)'): string | undefined {
  const shown = `${name} "${redactUrlCredentials(url)}"`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${shown} is not a URL (expected http(s)://host[:port])`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${shown} is not an http or https URL`;
  if (parsed.username !== '' || parsed.password !== '') {
    return `${shown} holds a user name or password, which obs cannot send (it authenticates with OBS_PUBLIC_KEY/OBS_SECRET_KEY in the Authorization header); remove them from the URL`;
  }
  return undefined;
}
