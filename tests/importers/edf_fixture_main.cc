// edf_fixture OUT_DIR: the input files of the `timef import` CLI test and example, written by
// EDFlib: OUT_DIR/night.edf (EDF+C, edf_oracle::EdfPlusSpec()), OUT_DIR/day.bdf (BDF+C, two
// channels), OUT_DIR/bad.edf (night.edf with digital minimum ≥ maximum on channel 1), and
// OUT_DIR/night.ch0.txt: EDFlib's digital samples of night.edf's channel 0 through the documented
// physical formula, one float32 per line ("%.9g").
#include <cstdio>
#include <exception>
#include <iostream>

#include "importers/edf_oracle.h"

int main(int argc, char** argv) {
  using namespace timef::edf_oracle;
  if (argc != 2) {
    std::cerr << "usage: edf_fixture OUT_DIR\n";
    return 2;
  }
  try {
    const fs::path out = argv[1];
    fs::create_directories(out);
    WriteWithEdflib(out / "night.edf", EdfPlusSpec());
    FileSpec day;
    day.filetype = EDFLIB_FILETYPE_BDFPLUS;
    day.channels = {MixedChannels()[0], MixedChannels()[3]};
    day.channels[0].dmin = -8388608;
    day.channels[0].dmax = 8388607;
    day.records = 2;
    day.seed = 9;
    day.annotations = {{1000, -1, "Button"}};
    WriteWithEdflib(out / "day.bdf", day);

    std::string bad = ReadBytes(out / "night.edf");
    const size_t ns = 6;  // four channels and two annotation channels
    const size_t dmin_1 = 256 + ns * (16 + 80 + 8 + 8 + 8) + 1 * 8;
    bad.replace(dmin_1, 8, "5000    ");
    WriteBytes(out / "bad.edf", bad);

    const EdflibRead oracle = ReadWithEdflib(out / "night.edf");
    FILE* values = std::fopen((out / "night.ch0.txt").c_str(), "w");
    if (values == nullptr) throw std::runtime_error("cannot write night.ch0.txt");
    for (int digital : oracle.digital[0]) {
      std::fprintf(values, "%.9g\n", PhysicalOf(digital, oracle.hdr.signalparam[0]));
    }
    std::fclose(values);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "edf_fixture: " << e.what() << "\n";
    return 1;
  }
}
