//! The page: plain HTML, CSS and JavaScript modules compiled into the binary.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::LazyLock;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::api::ApiError;

/// Every file of the page: name, content type, text and the text gzipped, each file
/// under `src/web/`, listed (and gzipped) by the build script.
const FILES: &[(&str, &str, &str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// Each file's strong entity tags, as sent and gzipped (two representations, two tags),
/// from a hash of its text computed once: the browser revalidates (`no-cache`) and gets a
/// 304 with no body while the file is unchanged, so three.js (2 MB) is not sent again on
/// every page load. The hash only has to be stable within one binary, which serves the
/// files it was built with.
static ETAGS: LazyLock<Vec<[HeaderValue; 2]>> = LazyLock::new(|| {
    FILES
        .iter()
        .map(|(_, _, text, _)| {
            let mut hasher = DefaultHasher::new();
            text.hash(&mut hasher);
            let hash = hasher.finish();
            [format!("\"{hash:016x}\""), format!("\"{hash:016x}-gzip\"")]
                .map(|tag| HeaderValue::from_str(&tag).expect("hex digits in quotes"))
        })
        .collect()
});

/// A file of the page, gzipped when `request` accepts gzip, a 304 when `request` holds
/// its entity tag in `If-None-Match`, or a 404.
pub fn page(name: &str, request: &HeaderMap) -> Response {
    let Some(index) = FILES.iter().position(|(file, _, _, _)| *file == name) else {
        return ApiError::new(StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let (_, content_type, text, gzipped) = FILES[index];
    let gzip = accepts_gzip(request);
    let etag = ETAGS[index][usize::from(gzip)].clone();
    let headers = [
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::ETAG, etag.clone()),
        (header::VARY, HeaderValue::from_static("accept-encoding")),
    ];
    if matches_any(request, &etag) {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    let content_type = (header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if gzip {
        let encoding = (header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        (headers, [content_type, encoding], gzipped).into_response()
    } else {
        (headers, [content_type], text).into_response()
    }
}

/// Whether `request`'s `Accept-Encoding` takes gzip: named with a weight above 0, or `*`
/// with one while gzip is not named (RFC 9110, 12.5.3).
fn accepts_gzip(request: &HeaderMap) -> bool {
    let mut named = None;
    let mut any = false;
    for item in request
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
    {
        let mut parts = item.split(';').map(str::trim);
        let coding = parts.next().unwrap_or_default().to_ascii_lowercase();
        let weight = parts
            .find_map(|p| p.strip_prefix("q=").or_else(|| p.strip_prefix("Q=")))
            .map_or(1.0, |q| q.trim().parse::<f32>().unwrap_or(0.0));
        match coding.as_str() {
            "gzip" | "x-gzip" => named = Some(weight > 0.0),
            "*" => any = weight > 0.0,
            _ => {}
        }
    }
    named.unwrap_or(any)
}

/// Whether an `If-None-Match` header of `request` names `etag` or is `*` (the weak
/// comparison RFC 9110 asks for here: a `W/` prefix is ignored).
fn matches_any(request: &HeaderMap, etag: &HeaderValue) -> bool {
    let etag = etag.as_bytes();
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/").as_bytes() == etag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_the_page_imports_is_served() {
        for (name, _, text, _) in FILES {
            for line in text
                .lines()
                .map(str::trim_start)
                .filter(|l| l.starts_with("import ") || l.starts_with("} from "))
            {
                let Some(path) = line.split(['"', '\'']).nth(1) else {
                    continue;
                };
                let resolved = resolve(name, path);
                assert!(
                    FILES.iter().any(|(f, _, _, _)| *f == resolved),
                    "{name} imports {path}, which is not served"
                );
            }
        }
    }

    /// Each file goes out gzipped, as it is once unzipped, where the browser takes gzip.
    #[test]
    fn every_file_is_served_gzipped_to_who_takes_gzip() {
        use std::io::Read;
        for (name, _, text, gzipped) in FILES {
            let mut unzipped = String::new();
            flate2::read::GzDecoder::new(*gzipped)
                .read_to_string(&mut unzipped)
                .unwrap();
            assert_eq!(unzipped, *text, "{name}");
        }
        let asking = |encodings: &str| {
            let mut request = HeaderMap::new();
            request.insert(header::ACCEPT_ENCODING, encodings.parse().unwrap());
            request
        };
        let three = page("vendor/three.core.js", &asking("gzip, deflate, br, zstd"));
        assert_eq!(three.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(three.headers()[header::VARY], "accept-encoding");
        let (_, _, text, gzipped) = FILES
            .iter()
            .find(|(name, ..)| *name == "vendor/three.core.js")
            .unwrap();
        assert!(gzipped.len() * 4 < text.len(), "{} bytes", gzipped.len());
        let plain = page("vendor/three.core.js", &HeaderMap::new());
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        assert_ne!(plain.headers()[header::ETAG], three.headers()[header::ETAG]);
        // Each representation is revalidated by its own tag.
        let mut again = asking("gzip");
        again.insert(header::IF_NONE_MATCH, three.headers()[header::ETAG].clone());
        assert_eq!(
            page("vendor/three.core.js", &again).status(),
            StatusCode::NOT_MODIFIED
        );
        again.insert(header::ACCEPT_ENCODING, "identity".parse().unwrap());
        assert_eq!(
            page("vendor/three.core.js", &again).status(),
            StatusCode::OK
        );
        for (encodings, gzip) in [
            ("gzip", true),
            ("GZip;q=0.5", true),
            ("x-gzip", true),
            ("*", true),
            ("br, *;q=0.1", true),
            ("gzip;q=0", false),
            ("*, gzip;q=0", false),
            ("*;q=0", false),
            ("identity", false),
            ("br, zstd", false),
            ("gzip;q=zero", false),
        ] {
            assert_eq!(accepts_gzip(&asking(encodings)), gzip, "{encodings}");
        }
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    /// The served name a module imports: `path` relative to the importing file `name`'s
    /// folder, or absolute under /static/.
    fn resolve(name: &str, path: &str) -> String {
        let mut parts: Vec<&str> = match path.strip_prefix("/static/") {
            Some(absolute) => return absolute.to_string(),
            None => name.split('/').collect(),
        };
        parts.pop();
        for part in path.split('/') {
            match part {
                "." => {}
                ".." => {
                    parts.pop();
                }
                _ => parts.push(part),
            }
        }
        parts.join("/")
    }
}
