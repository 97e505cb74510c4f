// The pages of a signal's stored values with their min/max from the Parquet page statistics
// (include/timef/value_pages.h), what `timef view` draws a zoomed-out signal from without decoding
// it. Usage: value_pages RELEASE_DIR SIGNAL_ID
#include <timef/reader.h>
#include <timef/value_pages.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: value_pages RELEASE_DIR SIGNAL_ID\n";
    return 2;
  }
  try {
    timef::Reader reader = timef::Reader::Open(argv[1]);
    const timef::SignalValuesRef ref = reader.GetSignalValues(std::stoll(argv[2]));
    const std::vector<timef::ValuePage> pages = timef::ReadValuePages(ref);
    const auto bounded = std::count_if(pages.begin(), pages.end(),
                                       [](const timef::ValuePage& p) { return p.bounded; });
    std::cout << "signal " << ref.id() << ": " << ref.n_values() << " steps in " << pages.size()
              << " pages, " << bounded << " bounded by their statistics, "
              << reader.counters().data_pages_decoded << " data pages decoded\n";
    for (const timef::ValuePage& page : pages) {
      std::cout << "  steps [" << page.begin << ", " << page.end << "): ";
      if (!page.bounded) {
        std::cout << "no statistics\n";
      } else if (!page.min) {
        std::cout << "only nulls\n";
      } else {
        std::cout << "min " << *page.min << ", max " << *page.max << "\n";
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "value_pages: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
