//! What every request passes through before the routes: the request log, the security
//! headers, the bounds of a request's head, the Host check (against DNS rebinding) and
//! the rate limits per client address.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use crosscap_engine::text::escape_controls;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::api::ApiError;
use crate::limits::Limits;

/// The page's policy: its own scripts, styles and requests only, no plugins, never in a
/// frame.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to every answer.
pub async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// Refuses a request whose address or head is over its bounds with a 414 or 431 and a
/// JSON error that says which bound and by how much. The HTTP layer refuses only heads
/// over its own larger bounds, and with an empty body.
pub async fn head_within(
    State(limits): State<Arc<Limits>>,
    request: Request,
    next: Next,
) -> Response {
    let address = request
        .uri()
        .path_and_query()
        .map_or(0, |address| address.as_str().len());
    if address > limits.max_address_bytes {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!(
                "the address is {address} bytes, over this server's {}: a long board goes \
                 in a request's JSON body (POST /api/board, POST /api/games)",
                limits.max_address_bytes
            ),
        )
        .into_response();
    }
    let headers = request.headers();
    // Each line as sent: name, ": ", value, CRLF; and the request line.
    let head = address
        + request.method().as_str().len()
        + "  HTTP/1.1\r\n\r\n".len()
        + headers
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len() + 4)
            .sum::<usize>();
    let too_large = if headers.len() > limits.max_headers {
        Some(format!(
            "the request has {} header lines, over this server's {}",
            headers.len(),
            limits.max_headers
        ))
    } else if head > limits.max_head_bytes {
        Some(format!(
            "the request's head is {head} bytes, over this server's {}",
            limits.max_head_bytes
        ))
    } else {
        None
    };
    match too_large {
        Some(message) => {
            ApiError::new(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, message).into_response()
        }
        None => next.run(request).await,
    }
}

/// Reads a request's whole body, at most `max_bytes` of it within `wait`, before the
/// routes see it: a client sending its body a byte at a time would otherwise hold its
/// connection, and a place among the connections of its address, for as long as it likes.
pub async fn body_in_time(
    State((max_bytes, wait)): State<(usize, Duration)>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = match tokio::time::timeout(wait, axum::body::to_bytes(body, max_bytes)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "the request body is too large",
            )
            .into_response();
        }
        Err(_) => {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} s",
                    wait.as_secs_f64()
                ),
            )
            .into_response();
        }
    };
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))
        .await
}

/// One line per request: method, path, status, milliseconds (never bodies or queries,
/// so no token is logged).
pub async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = escape_controls(request.uri().path());
    let start = Instant::now();
    let response = next.run(request).await;
    tracing::info!(
        "{method} {path} {} {:.1} ms",
        response.status().as_u16(),
        start.elapsed().as_secs_f64() * 1000.0
    );
    response
}

/// Which Host headers the server answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostPolicy {
    /// Loopback names (`localhost`, `127.0.0.1`, `[::1]`) are accepted.
    loopback: bool,
    /// Names (or `name:port`) accepted besides; with `any`, every name is.
    allowed: Vec<String>,
    any: bool,
}

impl HostPolicy {
    /// Bound to a loopback address: loopback names and the `allowed` ones (a proxy on
    /// the same machine may pass its own); bound elsewhere: only the `allowed` names if
    /// any are given, otherwise every name.
    pub fn for_addr(addr: SocketAddr, allowed: &[String]) -> HostPolicy {
        let loopback = addr.ip().is_loopback();
        HostPolicy {
            loopback,
            allowed: allowed.iter().map(|h| h.to_ascii_lowercase()).collect(),
            any: !loopback && allowed.is_empty(),
        }
    }

    /// Whether a request with this Host header is answered.
    pub fn allows(&self, host: Option<&str>) -> bool {
        if self.any {
            return true;
        }
        let Some(host) = host.map(str::to_ascii_lowercase) else {
            return false;
        };
        let name = host_name(&host);
        (self.loopback && ["localhost", "127.0.0.1", "[::1]"].contains(&name))
            || self
                .allowed
                .iter()
                .any(|a| *a == host || (host_name(a) == a && a == name))
    }
}

/// The name part of a Host header (`[::1]:7878` -> `[::1]`, `example.org:80` ->
/// `example.org`).
fn host_name(host: &str) -> &str {
    match host.rsplit_once(':') {
        Some((name, port))
            if port.bytes().all(|b| b.is_ascii_digit())
                && !name.is_empty()
                && !name.ends_with(':') =>
        {
            name
        }
        _ => host,
    }
}

/// Refuses requests for other hosts with a 421 and a JSON error.
pub async fn check_host(
    State(policy): State<Arc<HostPolicy>>,
    request: Request,
    next: Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    if policy.allows(host) {
        return next.run(request).await;
    }
    ApiError::new(
        StatusCode::MISDIRECTED_REQUEST,
        match host {
            Some(host) => format!("this server does not answer for the host {host:?}"),
            None => "this server answers only requests that name their host".to_string(),
        },
    )
    .into_response()
}

/// A rate limit per client address: a burst, then one request per period.
pub struct RateLimit {
    /// What is limited, in words, for the 429's message.
    what: &'static str,
    limiter: Option<DefaultKeyedRateLimiter<IpAddr>>,
    burst: u32,
    period: Duration,
}

/// Addresses remembered before the idle ones are forgotten.
const REMEMBERED_ADDRESSES: usize = 4096;

impl RateLimit {
    /// `burst` requests at once, then one per `period` (a burst or period of 0: no limit).
    pub fn new(what: &'static str, burst: u32, period: Duration) -> RateLimit {
        let quota = NonZeroU32::new(burst)
            .zip(Quota::with_period(period))
            .map(|(burst, quota)| quota.allow_burst(burst));
        RateLimit {
            what,
            limiter: quota.map(RateLimiter::keyed),
            burst,
            period,
        }
    }

    /// Counts a request from `ip`, or a 429 saying when to try again.
    pub fn check(&self, ip: IpAddr) -> Result<(), ApiError> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        if limiter.len() > REMEMBERED_ADDRESSES {
            limiter.retain_recent();
        }
        limiter.check_key(&ip).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            ApiError::busy(format!(
                "too many {} from this address: {} at once, then one every {} s; try again \
                 in {:.1} s",
                self.what,
                self.burst,
                self.period.as_secs_f64(),
                wait.as_secs_f64()
            ))
        })
    }
}

/// Middleware: counts the request against its route's rate limit.
pub async fn rate_limited(
    State(limit): State<Arc<RateLimit>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    match limit.check(peer.ip()) {
        Ok(()) => next.run(request).await,
        Err(err) => err.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(addr: &str, allowed: &[&str]) -> HostPolicy {
        let allowed: Vec<String> = allowed.iter().map(|s| s.to_string()).collect();
        HostPolicy::for_addr(addr.parse().unwrap(), &allowed)
    }

    #[test]
    fn loopback_servers_answer_loopback_names_only() {
        let local = policy("127.0.0.1:7878", &[]);
        for host in [
            "localhost",
            "localhost:7878",
            "127.0.0.1:7878",
            "[::1]:7878",
            "LOCALHOST",
        ] {
            assert!(local.allows(Some(host)), "{host}");
        }
        for host in [
            "evil.example:7878",
            "127.0.0.2",
            "localhost.evil.example",
            "[::1]x",
            "",
        ] {
            assert!(!local.allows(Some(host)), "{host}");
        }
        assert!(!local.allows(None));
        let proxied = policy("[::1]:7878", &["games.example.org"]);
        assert!(proxied.allows(Some("games.example.org")));
        assert!(proxied.allows(Some("[::1]:7878")));
    }

    #[test]
    fn other_addresses_answer_the_allowed_names_or_any() {
        let open = policy("0.0.0.0:8080", &[]);
        assert!(open.allows(Some("192.168.1.20:8080")));
        assert!(open.allows(None));
        let named = policy("0.0.0.0:8080", &["box.lan", "10.0.0.5:8080"]);
        assert!(named.allows(Some("box.lan:8080")));
        assert!(named.allows(Some("BOX.LAN")));
        assert!(named.allows(Some("10.0.0.5:8080")));
        assert!(!named.allows(Some("10.0.0.5:9090")));
        assert!(!named.allows(Some("localhost:8080")));
        assert!(!named.allows(Some("evil.example")));
    }

    #[test]
    fn a_rate_limit_allows_its_burst_then_refuses() {
        let limit = RateLimit::new("games", 3, Duration::from_secs(3600));
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        for _ in 0..3 {
            assert!(limit.check(a).is_ok());
        }
        let refused = limit.check(a).unwrap_err();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(
            refused.message.contains("too many games"),
            "{}",
            refused.message
        );
        assert!(limit.check(b).is_ok(), "each address has its own budget");
        let off = RateLimit::new("games", 0, Duration::from_secs(1));
        assert!((0..100).all(|_| off.check(a).is_ok()));
    }
}
