//! The learned evaluation: training data from self-play ([`datagen`]) in a compact file
//! format ([`data`]), the network's inputs ([`features`]), the network and its file
//! ([`net`]), the trainer ([`train`]), a Texel-style fit of the hand-written evaluation
//! ([`texel`]) and the incrementally updated evaluation the search
//! uses ([`eval`]). The networks built into the binary are in `nets/` (docs/nnue.md tells
//! how each was made).

pub mod data;
pub mod datagen;
pub mod eval;
pub mod features;
pub mod from_pgn;
pub mod net;
pub mod rescore;
pub mod texel;
pub mod train;

use std::sync::{Arc, OnceLock};

use crate::rules::variant::Variant;
use net::Network;

/// The networks built into the binary: (variant id, file bytes). docs/nnue.md tells how
/// each was trained and what it gained.
const EMBEDDED: &[(&str, &[u8])] = &[
    ("chess", include_bytes!("../../nets/chess.nnue")),
    ("gustav3", include_bytes!("../../nets/gustav3.nnue")),
    ("venator", include_bytes!("../../nets/venator.nnue")),
    ("venomous", include_bytes!("../../nets/venomous.nnue")),
];

/// The network built in for `variant`, if it has one.
pub fn embedded(variant: &'static Variant) -> Option<Arc<Network>> {
    static NETS: OnceLock<Vec<(&'static str, Arc<Network>)>> = OnceLock::new();
    let nets = NETS.get_or_init(|| {
        EMBEDDED
            .iter()
            .filter_map(|&(id, bytes)| {
                let v = Variant::by_name(id)?;
                let net = Network::from_bytes(bytes, v).ok()?;
                Some((v.id(), Arc::new(net)))
            })
            .collect()
    });
    nets.iter()
        .find(|(id, _)| *id == variant.id())
        .map(|(_, net)| Arc::clone(net))
}

/// Reads a network file; the variant is the one the file names. Errors say what is wrong.
pub fn load(path: &std::path::Path) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let id = net::variant_id(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let v = Variant::by_name(&id).ok_or_else(|| {
        format!(
            "{}: a network for '{id}', which Sissa does not play (known: {})",
            path.display(),
            Variant::names()
        )
    })?;
    Network::from_bytes(&bytes, v).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_network_loads_for_its_variant() {
        for &(id, bytes) in EMBEDDED {
            let v = Variant::by_name(id).expect("a built-in variant");
            Network::from_bytes(bytes, v).unwrap_or_else(|e| panic!("nets/{id}.nnue: {e}"));
            assert!(embedded(v).is_some(), "{id}");
        }
    }
}
