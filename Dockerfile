# Jay Trainer: release build with cargo-leptos, then a slim non-root runtime.
# Listens on $PORT (default 7860, what Hugging Face Docker Spaces expect).
# Made for a Space: it trusts one proxy's X-Forwarded-For entry (the Space's),
# so each visitor has their own rate limit. Run it with no proxy in front and a
# visitor could forge that header: pass `-e JAY_TRUSTED_PROXY_HOPS=0` then
# (docker-compose.yml does).

FROM rust:1-bookworm AS build
WORKDIR /app
# Tools first (their own layer, cached until Cargo.lock or the script changes):
# the wasm32 target, cargo-leptos, wasm-bindgen-cli of the locked version, binaryen.
COPY Cargo.toml Cargo.lock ./
COPY .ci/setup .ci/setup
RUN bash .ci/setup
COPY . .
RUN bash .ci/page-two && cargo leptos build --release --precompress

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 1000 app \
    && mkdir -p /app/data && chown app /app/data
WORKDIR /app
COPY --from=build /app/target/release/jay-trainer /app/jay-trainer
# The JS, WASM and CSS hashes, read beside the binary (src/server/assets.rs).
COPY --from=build /app/target/release/hash.txt /app/hash.txt
COPY --from=build /app/target/site /app/site
COPY --from=build /app/models.toml /app/models.toml
ENV LEPTOS_SITE_ROOT=site \
    LEPTOS_ENV=PROD \
    RUST_LOG=info \
    JAY_MODELS=/app/models.toml \
    JAY_DATA_DIR=/app/data \
    HOST=0.0.0.0 \
    PORT=7860 \
    JAY_TRUSTED_PROXY_HOPS=1
EXPOSE 7860
USER app
CMD ["/app/jay-trainer"]
