#!/usr/bin/env python3
"""The registry .ci/modelbench runs the app with, and the model server's
configuration to serve it. Python 3.11's standard library only.

    registry.py local    FILE OUT SERVER_CONFIG --server URL --gguf PATH --timeout-ms N [--listen URL]
    registry.py stand-in FILE OUT SERVER_CONFIG --server URL --gguf PATH --timeout-ms N [--listen URL]
    registry.py real     FILE

`local`: FILE's `@MODEL_SERVER@`, `@TIMEOUT_MS@` and `@DEADLINE_MS@` are
filled in. `stand-in`: every enabled chat model of FILE is served by the
local model instead of its own host: alias, model id, `languages`, weight
and `enabled` are kept, `base_url` points at the local server,
`timeout_ms` and `max_concurrency = 1` are set and `token_env` is dropped
(text-generation models are left out). Both write the model server's
`--config_file`: one entry per model id the registry calls there, each the
same GGUF (llama.cpp answers an id it does not list with its first model,
but the app's availability check looks the id up in `/v1/models`).
`real`: FILE is used as written; prints what it will call.
"""

import argparse
import json
import sys
import tomllib
import urllib.parse

PLACEHOLDERS = ("@MODEL_SERVER@", "@TIMEOUT_MS@", "@DEADLINE_MS@")
DROPPED = {"base_url", "timeout_ms", "max_concurrency", "token_env", "api"}


def toml_value(value, where):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v, where) for v in value) + "]"
    raise SystemExit(f"registry.py: {where}: a {type(value).__name__} is not rewritten")


def stand_in(registry, server, timeout_ms):
    lines = []
    for key, value in registry.items():
        if key == "models":
            continue
        if key == "deadline_ms":
            value = timeout_ms + 1000
        lines.append(f"{key} = {toml_value(value, key)}")
    if "deadline_ms" not in registry:
        lines.append(f"deadline_ms = {timeout_ms + 1000}")
    kept = []
    for model in registry.get("models", []):
        alias = model.get("alias", "?")
        if model.get("api", "chat") != "chat":
            print(f"stand-in: {alias}: not a chat model, left out", file=sys.stderr)
            continue
        if not model.get("enabled", True):
            continue
        lines += ["", "[[models]]"]
        for key, value in model.items():
            if key not in DROPPED:
                lines.append(f"{key} = {toml_value(value, alias + '.' + key)}")
        lines += ['api = "chat"', f"base_url = {json.dumps(server)}",
                  f"timeout_ms = {timeout_ms}", "max_concurrency = 1"]
        kept.append(model)
    if not kept:
        raise SystemExit("registry.py: no enabled chat model to stand in for")
    return "\n".join(lines) + "\n"


def server_config(text, server, gguf, listen=None):
    """llama.cpp's --config_file: every model id the registry calls at
    `server`, listening at `listen` (default: `server`; another when a
    recording proxy stands at `server`)."""
    registry = tomllib.loads(text)
    ids = []
    for model in registry.get("models", []):
        if model.get("base_url") == server and model.get("enabled", True):
            if model["model"] not in ids:
                ids.append(model["model"])
    if not ids:
        raise SystemExit(f"registry.py: no enabled model is called at {server}")
    url = urllib.parse.urlsplit(listen or server)
    return {"host": url.hostname, "port": url.port, "models": [{"model": gguf, "model_alias": i, "n_threads": 2,
                        "chat_format": "chatml"} for i in ids]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["local", "stand-in", "real"])
    ap.add_argument("file")
    ap.add_argument("out", nargs="?")
    ap.add_argument("config", nargs="?")
    ap.add_argument("--server")
    ap.add_argument("--listen", help="where the model server listens (default: --server)")
    ap.add_argument("--gguf")
    ap.add_argument("--timeout-ms", type=int, default=8000)
    args = ap.parse_args()
    with open(args.file, encoding="utf-8") as f:
        text = f.read()
    if args.mode == "real":
        registry = tomllib.loads(text)
        for m in registry.get("models", []):
            state = "enabled" if m.get("enabled", True) else "disabled"
            where = m.get("base_url", "Hugging Face's router")
            print(f"real: {m.get('alias')}: {m.get('model')} at {where} ({state})",
                  file=sys.stderr)
        return 0
    if not (args.out and args.config and args.server and args.gguf):
        ap.error("local and stand-in need OUT, SERVER_CONFIG, --server and --gguf")
    if args.mode == "local":
        values = (args.server, str(args.timeout_ms), str(args.timeout_ms + 1000))
        for placeholder, value in zip(PLACEHOLDERS, values):
            text = text.replace(placeholder, value)
    else:
        text = stand_in(tomllib.loads(text), args.server, args.timeout_ms)
    config = server_config(text, args.server, args.gguf, args.listen)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    with open(args.config, "w", encoding="utf-8") as f:
        json.dump(config, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
