// Checkpoints of a fit: the whole TrainerState in a JSON file, written
// atomically, plus a fingerprint of the run (settings, data, starting
// weights) so that a resume on other data or settings is refused instead of
// silently mixing two fits.  Doubles are written in their shortest
// round-trip form, so a resumed fit continues bit for bit.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "samples.hpp"
#include "settings.hpp"
#include "split.hpp"
#include "trainer.hpp"

namespace dama::train {

// What must be equal for a checkpoint to continue a run.
nlohmann::json run_fingerprint(const TrainSettings& settings, const SampleSet& samples, const Split& split,
                               const Eigen::VectorXd& start);

void save_checkpoint(const std::string& path, const TrainerState& state, const nlohmann::json& fingerprint);

// Throws dama::Error naming the file (and the field) when it is unreadable,
// malformed, or written for another run.
TrainerState load_checkpoint(const std::string& path, const nlohmann::json& fingerprint);

}  // namespace dama::train
