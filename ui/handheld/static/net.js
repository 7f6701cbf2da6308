// The phone pages' one way to ask the kiosk: the answer's status and JSON body (null when it has
// none); status 0 when the kiosk could not be reached. It never throws.

export async function request(url, method = "GET", payload = undefined) {
  const options = { method, cache: "no-store" };
  if (payload !== undefined) {
    options.headers = { "Content-Type": "application/json" };
    options.body = JSON.stringify(payload);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch {
    return { status: 0, body: null };
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  return { status: response.status, body };
}
