// Which of the conversations and feedback routes this server has, read from its OpenAPI document (a probe of a missing route would
// log a failed request in the browser console, and a feedback probe would need a run of the caller's). Until the
// routes are declared their controls stay hidden; a later 404 or 405 from one switches its controls off again.

const ROUTES = {
  conversations: ["/conversations", "get"],
  feedback: ["/runs/{run_id}/feedback", "post"],
};

export async function detectCapabilities() {
  const found = { conversations: false, feedback: false };
  try {
    const response = await fetch("openapi.json", { cache: "no-store" });
    if (!response.ok) return found;
    const paths = (await response.json()).paths || {};
    for (const [name, [path, method]] of Object.entries(ROUTES)) found[name] = Boolean(paths[path]?.[method]);
  } catch {
    // No readable OpenAPI document: the optional controls stay hidden.
  }
  return found;
}
