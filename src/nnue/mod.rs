//! The learned evaluation's pipeline: training data from self-play ([`datagen`]) in a
//! compact file format ([`data`]), the network's inputs ([`features`]), the network and its
//! file ([`net`]), and the trainer ([`train`]).

pub mod data;
pub mod datagen;
pub mod features;
pub mod net;
pub mod train;
