//! Surface names (`S`, `o<g>`, `n<g>`, `T`, `P`, `K`, connected sums with `#`) and
//! 2-manifolds (surfaces separated by spaces, commas or `+`), and the positions a game is
//! played from.
#![no_main]

use libfuzzer_sys::fuzz_target;

use crosscap_fuzz::text;
use crosscap_manifold::{Manifold, Surface, playable_position};

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    if let Ok(surface) = text.parse::<Surface>() {
        assert_eq!(surface.to_string().parse::<Surface>(), Ok(surface));
    }
    match text.parse::<Manifold>() {
        Ok(manifold) => assert_eq!(manifold.to_string().parse::<Manifold>(), Ok(manifold)),
        Err(error) => {
            let _ = error.to_string();
        }
    }
    if let Err(error) = playable_position(&text) {
        let _ = error.to_string();
    }
});
