//! The page: plain HTML, CSS and JavaScript modules compiled into the binary.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::LazyLock;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// Every file of the page, name, content type and text: each file under `src/web/`,
/// listed by the build script.
const FILES: &[(&str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// Each file's strong entity tag, a hash of its text computed once: the browser
/// revalidates (`no-cache`) and gets a 304 with no body while the file is unchanged, so
/// three.js (2 MB) is not sent again on every page load. The hash only has to be stable
/// within one binary, which serves the files it was built with.
static ETAGS: LazyLock<Vec<HeaderValue>> = LazyLock::new(|| {
    FILES
        .iter()
        .map(|(_, _, text)| {
            let mut hasher = DefaultHasher::new();
            text.hash(&mut hasher);
            HeaderValue::from_str(&format!("\"{:016x}\"", hasher.finish()))
                .expect("hex digits in quotes are a valid header value")
        })
        .collect()
});

/// A file of the page, a 304 when `request` holds its entity tag in `If-None-Match`, or a
/// 404.
pub fn page(name: &str, request: &HeaderMap) -> Response {
    let Some(index) = FILES.iter().position(|(file, _, _)| *file == name) else {
        return (StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let (_, content_type, text) = FILES[index];
    let etag = ETAGS[index].clone();
    let headers = [
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::ETAG, etag.clone()),
    ];
    if matches_any(request, &etag) {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    (headers, [(header::CONTENT_TYPE, content_type)], text).into_response()
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
        for (name, _, text) in FILES {
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
                    FILES.iter().any(|(f, _, _)| *f == resolved),
                    "{name} imports {path}, which is not served"
                );
            }
        }
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
