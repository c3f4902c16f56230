//! Level names (`easy` … `perfect`, `random`, `flatmc:N`, `mcts:N`): a level read writes
//! back to a name that reads the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

use crosscap_engine::Level;
use crosscap_fuzz::text;

fuzz_target!(|data: &[u8]| match text(data).parse::<Level>() {
    Ok(level) => assert_eq!(level.to_string().parse::<Level>(), Ok(level)),
    Err(error) => {
        let _ = error.to_string();
    }
});
