#include "commands.h"

namespace timef::cli {

void RegisterManifestCommands(CLI::App& app, Action& action) {}

}  // namespace timef::cli
