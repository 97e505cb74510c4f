#include "commands.h"

namespace timef::cli {

void RegisterParquetCommands(CLI::App& app, Action& action) {}

}  // namespace timef::cli
