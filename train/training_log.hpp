// The training log: one CSV row per epoch, for scripts/plot_training.py.
//   epoch,train_loss,validation_loss,learning_rate,seconds
#pragma once

#include <fstream>
#include <string>

#include "trainer.hpp"

namespace dama::train {

class TrainingLog {
 public:
  // A fresh log (a header line), or, when resuming, the existing log cut
  // back to the rows of epochs up to `resumed_epoch` (an interrupted run may
  // have logged an epoch its last checkpoint does not hold).
  TrainingLog(const std::string& path, bool resume, int resumed_epoch);

  void write(const EpochReport& report);

  static constexpr const char* kHeader = "epoch,train_loss,validation_loss,learning_rate,seconds";

 private:
  std::string path_;
  std::ofstream out_;
};

}  // namespace dama::train
