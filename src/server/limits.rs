//! Who is asking, and how often: the client's address and the per-client
//! rate limit on comments (the limiter itself is in [`rate`]).
//!
//! The client is the socket's peer address, or, behind proxies the operator
//! trusts (`JAY_TRUSTED_PROXY_HOPS`), the `X-Forwarded-For` entry the outermost
//! trusted proxy added. Each proxy appends the address it received the request
//! from, so with `n` trusted proxies the client is the `n`-th entry from the
//! right; anything further left was written by the client and may be forged.
//! A request that carries `X-Forwarded-For` while no proxy is trusted is logged
//! once, loudly: behind a proxy that setting makes every visitor share the
//! proxy's allowance.
//!
//! IPv6 clients are limited per /64 ([`bucket`]). The same bucket is the
//! client's share of the day's model calls ([`ClientIp::budget_key`]).

pub mod guesses;
mod rate;
mod reports;

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    sync::atomic::{AtomicBool, Ordering},
};

use axum::{
    extract::{ConnectInfo, Request},
    http::HeaderMap,
};

pub use rate::{Charge, ClientLimiter, Clock, ManualClock, MonotonicClock};
pub use reports::ReportLimits;

use coach::budget::ClientKey;

/// The client's address, as [`client_ip`] worked it out; put into every
/// request's extensions by [`tag_client`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// Whose share of the day's model calls a request spends: the client's
    /// [`bucket`], as for its rate limit. A request with no known address
    /// (never one that came through [`tag_client`]) shares one key with all
    /// such requests.
    pub fn budget_key(client: Option<Self>) -> ClientKey {
        client.map_or_else(ClientKey::default, |Self(ip)| ClientKey::from(bucket(ip)))
    }
}

/// Whose allowance an address draws on. An IPv6 host usually holds a whole
/// /64 and could hop between its addresses, so IPv6 is limited per /64; an
/// IPv4 address mapped into IPv6 counts as the IPv4 address.
pub fn bucket(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let prefix = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(prefix.into())
        }
        v4 => v4,
    }
}

/// The client's IP: see the module docs.
pub fn client_ip(peer: Option<IpAddr>, headers: &HeaderMap, trusted_hops: usize) -> IpAddr {
    let unknown = IpAddr::V4(Ipv4Addr::UNSPECIFIED);
    if trusted_hops == 0 {
        return peer.unwrap_or(unknown);
    }
    let forwarded: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    forwarded
        .len()
        .checked_sub(trusted_hops)
        .and_then(|i| parse_forwarded(forwarded[i]))
        // Fewer entries than trusted proxies: the request skipped a proxy.
        .or(peer)
        .unwrap_or(unknown)
}

/// An `X-Forwarded-For` entry: `1.2.3.4`, `2001:db8::1`, or with a port,
/// `1.2.3.4:5678` / `[2001:db8::1]:5678` (some proxies add it).
fn parse_forwarded(entry: &str) -> Option<IpAddr> {
    entry
        .parse()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

/// Whether this process has warned about an untrusted `X-Forwarded-For`.
static WARNED_UNTRUSTED_PROXY: AtomicBool = AtomicBool::new(false);

/// Logs one loud warning (the first time only, as `warned` records) when a
/// request carries `X-Forwarded-For` but no proxy is trusted: behind a proxy,
/// every visitor then shares the proxy's allowance. Says whether it warned.
fn warn_untrusted_proxy(warned: &AtomicBool, headers: &HeaderMap, trusted_hops: usize) -> bool {
    if trusted_hops != 0
        || !headers.contains_key("x-forwarded-for")
        || warned.swap(true, Ordering::Relaxed)
    {
        return false;
    }
    tracing::warn!(
        "REQUESTS ARRIVE THROUGH A PROXY (they carry X-Forwarded-For) BUT \
         JAY_TRUSTED_PROXY_HOPS=0: the rate limit keys on the proxy's address, so \
         ALL VISITORS SHARE ONE ALLOWANCE. Behind one proxy (a Hugging Face Space) \
         set JAY_TRUSTED_PROXY_HOPS=1; if clients reach this server directly, keep 0 \
         (the header is theirs to forge). Said once."
    );
    true
}

/// Middleware (`axum::middleware::map_request`): records the [`ClientIp`]
/// of every request.
pub async fn tag_client(trusted_hops: usize, mut request: Request) -> Request {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    warn_untrusted_proxy(&WARNED_UNTRUSTED_PROXY, request.headers(), trusted_hops);
    let ip = client_ip(peer, request.headers(), trusted_hops);
    request.extensions_mut().insert(ClientIp(ip));
    request
}

#[cfg(test)]
mod tests {

    use super::*;

    fn headers(xff: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in xff {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn without_trusted_proxies_the_socket_decides() {
        let h = headers(&["6.6.6.6"]);
        assert_eq!(client_ip(Some(ip("10.0.0.1")), &h, 0), ip("10.0.0.1"));
    }

    #[test]
    fn behind_trusted_proxies_the_entry_they_added_decides() {
        // The client forged "6.6.6.6"; the one trusted proxy appended the real peer.
        let h = headers(&["6.6.6.6, 203.0.113.7"]);
        assert_eq!(client_ip(Some(ip("10.0.0.1")), &h, 1), ip("203.0.113.7"));
        // Two proxies, the header split over two lines.
        let h = headers(&["6.6.6.6, 203.0.113.7", "10.1.1.1"]);
        assert_eq!(client_ip(Some(ip("10.0.0.2")), &h, 2), ip("203.0.113.7"));
        // With ports, as some proxies write them.
        let h = headers(&["203.0.113.7:5040"]);
        assert_eq!(client_ip(None, &h, 1), ip("203.0.113.7"));
        let h = headers(&["[2001:db8::7]:443"]);
        assert_eq!(client_ip(None, &h, 1), ip("2001:db8::7"));
        // Too few entries or junk: the socket.
        assert_eq!(
            client_ip(Some(ip("10.0.0.1")), &headers(&[]), 1),
            ip("10.0.0.1")
        );
        let junk = headers(&["not-an-ip"]);
        assert_eq!(client_ip(Some(ip("10.0.0.1")), &junk, 1), ip("10.0.0.1"));
        assert_eq!(client_ip(None, &junk, 1), ip("0.0.0.0"));
    }

    #[test]
    fn ipv6_clients_are_limited_per_64_and_mapped_ipv4_as_ipv4() {
        assert_eq!(
            bucket(ip("2001:db8:1:2:aaaa::1")),
            bucket(ip("2001:db8:1:2:bbbb::9"))
        );
        assert_ne!(bucket(ip("2001:db8:1:2::1")), bucket(ip("2001:db8:1:3::1")));
        assert_eq!(bucket(ip("::ffff:198.51.100.7")), ip("198.51.100.7"));
    }

    #[test]
    fn a_clients_budget_key_is_its_rate_limit_bucket() {
        let key = |s: &str| ClientIp::budget_key(Some(ClientIp(ip(s))));
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:bbbb::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:198.51.100.7"), key("198.51.100.7"));
        assert_ne!(key("198.51.100.7"), key("198.51.100.8"));
        assert_eq!(ClientIp::budget_key(None), ClientKey::default());
    }

    use coach::test_logs::logged as logs_of;

    #[test]
    fn a_forwarded_request_with_no_trusted_proxy_is_warned_about_once() {
        let warned = AtomicBool::new(false);
        let logs = logs_of(|| {
            assert!(!warn_untrusted_proxy(&warned, &headers(&[]), 0));
            assert!(!warn_untrusted_proxy(
                &warned,
                &headers(&["203.0.113.7"]),
                1
            ));
            assert!(!warned.load(Ordering::Relaxed), "nothing to warn about yet");
            assert!(warn_untrusted_proxy(&warned, &headers(&["203.0.113.7"]), 0));
            for _ in 0..3 {
                assert!(!warn_untrusted_proxy(
                    &warned,
                    &headers(&["203.0.113.8"]),
                    0
                ));
            }
        });
        assert_eq!(logs.lines().count(), 1, "once: {logs}");
        assert!(
            logs.contains("WARN") && logs.contains("JAY_TRUSTED_PROXY_HOPS=1"),
            "{logs}"
        );
    }

    #[test]
    fn the_space_image_trusts_the_spaces_proxy_out_of_the_box() {
        // On a Hugging Face Space every visitor arrives through one proxy: with
        // no hop trusted, they would all share one allowance.
        let dockerfile = include_str!("../../Dockerfile");
        let hops: Vec<&str> = dockerfile
            .lines()
            .filter_map(|l| l.trim().strip_prefix("JAY_TRUSTED_PROXY_HOPS="))
            .collect();
        assert_eq!(hops, vec!["1"], "the image's ENV sets it once, to 1");
    }
}
