// A local fake of the Hugging Face router's OpenAI-compatible chat API, for the
// end-to-end tests: POST /v1/chat/completions answers in the real wire shape.
// Nothing here reaches the network; it listens on 127.0.0.1 only.
import http from "node:http";

const port = Number(process.env.FAKE_UPSTREAM_PORT ?? 3190);
let calls = 0;

// A blog on another origin that embeds the app, with the README's listener.
function hostPage(src) {
  const escaped = src.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html><html><head><title>A blog</title></head><body>
<h1>My blog post about neurons</h1>
<iframe id="jay" src="${escaped}" title="Jay Trainer" width="800" height="600" style="border:0"></iframe>
<script>
window.heights = [];
addEventListener("message", (e) => {
  if (e.data && e.data.type === "jay-trainer:height") {
    window.heights.push({ origin: e.origin, height: e.data.height });
    document.getElementById("jay").height = e.data.height;
  }
});
</script></body></html>`;
}

const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/health") {
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    return;
  }
  if (req.method === "GET" && req.url.startsWith("/host.html")) {
    const src = new URL(req.url, "http://localhost").searchParams.get("src") ?? "";
    res.writeHead(200, { "content-type": "text/html" }).end(hostPage(src));
    return;
  }
  if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not found" }));
    return;
  }
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    let request;
    try {
      request = JSON.parse(body);
    } catch {
      res.writeHead(422, { "content-type": "text/plain" }).end("Input validation error: not JSON");
      return;
    }
    calls += 1;
    // The attempt number, from the prompt's last user turn ("... Attempt 3, ...",
    // "Tentativa 3", "第 3 次尝试").
    const question = request.messages?.at(-1)?.content ?? "";
    const found = /(Attempt|Tentativa) (\d+)|第 (\d+) 次/.exec(question);
    const attempt = Number(found?.[2] ?? found?.[3] ?? 0);
    // Answered in the prompt's language (the words that named the attempt), as
    // a real model asked in Portuguese or Chinese would, so the app's language
    // check passes it: a reply the app rejects counts against the model and,
    // five in a row, rests it for a while, which would change what later tests
    // on the same server are answered.
    const said = found?.[1] === "Tentativa"
      ? `Treinador de mentira na tentativa ${attempt}: boa jogada!`
      : found?.[3] !== undefined
        ? `第 ${attempt} 次尝试：假教练说，走得好！`
        : `Fake coach on attempt ${attempt}: nice move!`;
    const content = ` "${said}" |fim| rambling that must be cut`;
    // The slow model always takes 2 s, so quick key presses find a comment still
    // under way (coach-rate-limit.spec.ts). Otherwise a visitor's first attempt
    // is answered slowly, so a test can check that a newer attempt cancels it.
    // (A request the app gave up on meanwhile closed its connection: no answer.)
    const delay = /Slow/.test(request.model ?? "") ? 2000 : attempt === 1 ? 1500 : 0;
    setTimeout(() => !req.socket.destroyed && res.writeHead(200, { "content-type": "application/json", "x-inference-provider": "fake" }).end(
      JSON.stringify({
        id: `fake-${calls}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: request.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: 80, completion_tokens: 12, total_tokens: 92 },
      }),
    ), delay);
  });
});

server.listen(port, "127.0.0.1", () => console.log(`fake upstream on http://127.0.0.1:${port}`));
