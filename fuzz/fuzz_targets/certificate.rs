//! A certificate: `Certificate::read` on any bytes (plain text or zstd), then the check of
//! whatever it read, on one thread.
#![no_main]

use libfuzzer_sys::fuzz_target;

use crosscap_certificate::{Certificate, verify_on};

fuzz_target!(|data: &[u8]| {
    match Certificate::read(data) {
        Ok(certificate) => match verify_on(&certificate, 1) {
            Ok(verified) => {
                let _ = verified.nodes;
            }
            Err(invalid) => {
                let _ = invalid.to_string();
            }
        },
        Err(error) => {
            let _ = error.to_string();
        }
    }
});
