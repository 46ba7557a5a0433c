// Calls to the server's API. Every error the server sends is problem+json
// (RFC 9457) with a one-line detail; an ApiError carries it as its message.

export class ApiError extends Error {}

// Whether ``error`` is a request aborted through its AbortSignal.
export const isAbort = (error) => error?.name === "AbortError";

// POST ``body`` as JSON (GET when there is none); the parsed answer.
// ``signal`` aborts the request: the promise then rejects with an
// AbortError, and the server stops whatever search the request started.
// ``searchId`` names the search, so that GET /v1/searches/<id> gives its
// counters while it runs.
export async function api(path, body, { signal, searchId } = {}) {
  const accept = "application/json, application/problem+json";
  let response;
  let text;
  try {
    response = await fetch(path, body === undefined
      ? { method: "GET", headers: { Accept: accept }, signal }
      : {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: accept,
          ...(searchId ? { "X-Search-Id": searchId } : {}),
        },
        body: JSON.stringify(body),
        signal,
      });
    text = await response.text();
  } catch (e) {
    if (isAbort(e)) throw e;
    throw new ApiError(`cannot reach the server (${e.message})`);
  }
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const title = data?.title || response.statusText || "Error";
    const detail = data?.detail || text.slice(0, 200);
    throw new ApiError(`${response.status} ${title}: ${detail}`);
  }
  return data;
}
