// Sign-in with the company's identity provider: the server runs the flow and keeps the session in an HttpOnly
// cookie; the page learns only who is signed in and the CSRF token its changes must carry.

async function postJson(path, csrf) {
  const response = await fetch(path, {
    method: "POST", cache: "no-store", headers: { "X-CSRF-Token": csrf || "", Accept: "application/json" },
  });
  return response.ok ? response.json() : null;
}

// {provider, user, csrf}: whether the provider is offered, and the signed-in user if the cookie holds one.
export async function providerSession() {
  try {
    const response = await fetch("auth/session", { cache: "no-store", headers: { Accept: "application/json" } });
    return response.ok ? await response.json() : { provider: false, user: null };
  } catch {
    return { provider: false, user: null };
  }
}

// End the cookie session on the server, then visit the provider's end-session page (or reload the page).
export async function providerSignOut(csrf) {
  const answer = await postJson("auth/logout", csrf);
  window.location.assign(answer && answer.redirect ? answer.redirect : ".");
}
