//! The page: plain HTML, CSS and JavaScript modules compiled into the binary.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// Every file of the page, name, content type and text: each file under `src/web/`,
/// listed by the build script.
const FILES: &[(&str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// A file of the page, or a 404.
pub fn page(name: &str) -> Response {
    match FILES.iter().find(|(file, _, _)| *file == name) {
        Some((_, content_type, text)) => (
            [
                (header::CONTENT_TYPE, *content_type),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *text,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
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
