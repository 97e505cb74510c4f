// The `timef` executable: everything happens in timef::cli::Run (run.cc).
#include "commands.h"

int main(int argc, char** argv) { return timef::cli::Run(argc, argv); }
