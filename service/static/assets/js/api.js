// The service's HTTP API, called with the signed-in key, or under the provider sign-in's session cookie (sent by the
// browser; the page holds only its CSRF token). Paths are relative, so the page works under a prefix.
import { readEvents } from "./sse.js";

export class ApiError extends Error {
  constructor(status, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

function describe(detail, status) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((d) => d.msg || String(d)).join("; ");
  return `the server answered ${status}`;
}

async function failure(response) {
  let detail = null;
  try {
    detail = (await response.json()).detail;
  } catch {
    detail = null;
  }
  return new ApiError(response.status, describe(detail, response.status), response.headers.get("Retry-After"));
}

export class Api {
  // `key`: an API key; or null with `csrf`, the cookie session's CSRF token.
  constructor(key, csrf = null) {
    this.key = key;
    this.credential = key ? { "X-API-Key": key } : { "X-CSRF-Token": csrf };
  }

  async request(method, path, body) {
    const headers = { ...this.credential, Accept: "application/json" };
    const init = { method, headers, cache: "no-store" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    if (!response.ok) throw await failure(response);
    return response;
  }

  async json(method, path, body) {
    const response = await this.request(method, path, body);
    return response.status === 204 ? null : response.json();
  }

  // POST and yield each {event, data}; errors before the stream begins are thrown as ApiError.
  async *stream(path, body, signal) {
    const response = await fetch(path, {
      method: "POST", cache: "no-store", signal,
      headers: { ...this.credential, "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw await failure(response);
    yield* readEvents(response.body);
  }
}
