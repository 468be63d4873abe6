// Checkpoints of a fit: the whole TrainerState in a JSON file, written
// atomically, plus a fingerprint of the run (settings, data, starting
// weights) so that a resume on other data or settings is refused instead of
// silently mixing two fits.  Doubles are written in their shortest
// round-trip form, so a resumed fit continues bit for bit.  The fingerprint
// is the same whether the samples are held in memory or streamed (the two
// fit alike), so a fit may be resumed in the other mode.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sample_source.hpp"
#include "samples.hpp"
#include "settings.hpp"
#include "split.hpp"
#include "trainer.hpp"

namespace dama::train {

// What must be equal for a checkpoint to continue a run: the settings, the
// data (its digest and split), the starting weights, and for a mini-batch fit
// the blocks (they set the order of the samples).
nlohmann::json run_fingerprint(const TrainSettings& settings, SampleSource& source, const Eigen::VectorXd& start);
// The same for samples in memory, as one block.
nlohmann::json run_fingerprint(const TrainSettings& settings, const SampleSet& samples, const Split& split,
                               const Eigen::VectorXd& start);

void save_checkpoint(const std::string& path, const TrainerState& state, const nlohmann::json& fingerprint);

// Throws dama::Error naming the file (and the field) when it is unreadable,
// malformed, or written for another run.
TrainerState load_checkpoint(const std::string& path, const nlohmann::json& fingerprint);

}  // namespace dama::train
