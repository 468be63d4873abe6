// Reading a tuner config (configs/train/<variant>.toml) into TrainSettings.
// Every key is checked: an unknown key, a wrong type or a value out of range
// is refused with a one-line dama::Error naming the file and the key, so a
// typo never falls back silently to a default.
//
//   [model]      loss = "cross_entropy" | "mse", lambda, k, fit_k, man_value
//   [optimizer]  kind = "adam" | "gradient_descent" | "lazy_adam", learning_rate,
//                schedule = "constant" | "step" | "cosine", min_learning_rate,
//                step_epochs, step_factor, beta1, beta2, epsilon, batch_size, l2
//   [training]   max_epochs, patience, validation_share, seed, checkpoint_every
//   [data]       memory_mb
// A key left out keeps its default (settings.hpp).
#pragma once

#include <string>
#include <string_view>

#include "settings.hpp"
#include "variant.hpp"

namespace dama::train {

// `origin` names the text in errors (a path, or "built-in configs/train/<variant>.toml").
TrainSettings parse_train_config(std::string_view text, const std::string& origin);

TrainSettings load_train_config(const std::string& path);

// The shipped configs/train/<variant>.toml, compiled into the program.
// Throws dama::Error when the variant has none.
std::string_view built_in_train_config(const Variant& variant);

}  // namespace dama::train
