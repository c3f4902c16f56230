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
                .filter(|l| l.trim_start().starts_with("import "))
            {
                let Some(path) = line.split(['"', '\'']).nth(1) else {
                    continue;
                };
                let target = path.trim_start_matches("./").trim_start_matches("/static/");
                let resolved = if name.starts_with("games/") && path.starts_with("../") {
                    path.trim_start_matches("../").to_string()
                } else if name.starts_with("games/") && path.starts_with("./") {
                    format!("games/{target}")
                } else {
                    target.to_string()
                };
                assert!(
                    FILES.iter().any(|(f, _, _)| *f == resolved),
                    "{name} imports {path}, which is not served"
                );
            }
        }
    }
}
