// `timef view` end to end: the CLI started as a subprocess on a free port (`--port 0`, URL on the
// first stdout line, stopped by SIGTERM when the test ends), its pages loaded in headless Chromium
// (chromium-headless-shell, installed by scripts/setup-deps.sh; a missing browser is a failure).
// The DOM of / and /records/<id> holds the card, the signal names and the annotation labels; a
// hostile annotation is text, not markup; a screenshot of a record page shows the plotted trace,
// checked by counting the trace colour's pixels. With TIMEF_VIEW_SCREENSHOT=<file> the record
// page's screenshot is also copied there (docs/view.png is made this way).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/scratch_dir.h"
#include "timef/demo.h"
#include "timef/model.h"
#include "timef/writer.h"

namespace timef::view {
namespace {

namespace fs = std::filesystem;
constexpr const char* kHostile = "<img src=x onerror=document.title='pwned'>";

// `timef view DIR --port 0` in a child process that dies with the test process; the destructor
// sends SIGTERM and reaps it.
class ViewProcess {
 public:
  explicit ViewProcess(const fs::path& release) {
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      execl(TIMEF_CLI, TIMEF_CLI, "view", release.c_str(), "--port", "0", nullptr);
      _exit(127);
    }
    close(out[1]);
    stdout_ = fdopen(out[0], "r");
    char line[256] = {};
    if (stdout_ && fgets(line, sizeof(line), stdout_)) url_ = line;
    while (!url_.empty() && (url_.back() == '\n' || url_.back() == '\r')) url_.pop_back();
  }
  ~ViewProcess() { EXPECT_EQ(Stop(), 0); }
  // SIGTERM, then the exit status (0 when the server stopped cleanly).
  int Stop() {
    if (pid_ <= 0) return exit_;
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    if (stdout_) fclose(stdout_);
    stdout_ = nullptr;
    exit_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return exit_;
  }
  const std::string& url() const { return url_; }

 private:
  pid_t pid_ = -1;
  FILE* stdout_ = nullptr;
  std::string url_;
  int exit_ = 0;
};

// Runs a command, returns its stdout (stderr to `log`).
std::string Capture(const std::string& command, int* status) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return out;
  char buffer[65536];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof(buffer), p)) > 0) out.append(buffer, n);
  *status = pclose(p);
  return out;
}

class Browser {
 public:
  explicit Browser(const fs::path& scratch) : profile_(scratch / "chromium-profile") {}
  // The DOM once the page's scripts ran (the virtual time budget lets its fetches finish).
  std::string Dom(const std::string& url) {
    int status = 0;
    std::string dom = Capture(Base() + " --dump-dom '" + url + "' 2>" + Log(), &status);
    EXPECT_EQ(status, 0) << "chromium failed: " << Base();
    return dom;
  }
  void Screenshot(const std::string& url, const fs::path& png) {
    int status = 0;
    Capture(Base() + " --window-size=1200,900 --screenshot='" + png.string() + "' '" + url +
                "' >/dev/null 2>" + Log(),
            &status);
    EXPECT_EQ(status, 0) << "chromium failed: " << Base();
  }

 private:
  std::string Base() const {
    // `timeout`: a browser that hangs fails the test instead of stopping the suite.
    return "timeout 180 " + std::string(TIMEF_CHROMIUM) +
           " --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run "
           "--virtual-time-budget=15000 --user-data-dir='" +
           profile_.string() + "'";
  }
  std::string Log() const { return "'" + (profile_.parent_path() / "chromium.log").string() + "'"; }
  fs::path profile_;
};

// A minimal PNG reader (8-bit RGB/RGBA, not interlaced: what Chromium writes) to RGBA pixels.
struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
};
std::uint32_t Be32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         p[3];
}
Image ReadPng(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), {});
  Image image;
  if (bytes.size() < 8 + 25) return image;
  std::vector<unsigned char> idat;
  int color = 0, depth = 0, interlace = 0;
  for (std::size_t at = 8; at + 8 <= bytes.size();) {
    const std::uint32_t length = Be32(&bytes[at]);
    const std::string type(reinterpret_cast<const char*>(&bytes[at + 4]), 4);
    const unsigned char* data = &bytes[at + 8];
    if (at + 12 + length > bytes.size()) break;
    if (type == "IHDR") {
      image.width = static_cast<int>(Be32(data));
      image.height = static_cast<int>(Be32(data + 4));
      depth = data[8];
      color = data[9];
      interlace = data[12];
    } else if (type == "IDAT") {
      idat.insert(idat.end(), data, data + length);
    }
    at += 12 + length;
  }
  if (depth != 8 || (color != 2 && color != 6) || interlace != 0) return Image{};
  const int channels = color == 6 ? 4 : 3;
  const std::size_t stride = static_cast<std::size_t>(image.width) * channels;
  std::vector<unsigned char> raw((stride + 1) * image.height);
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, idat.data(), idat.size()) != Z_OK) return Image{};
  std::vector<unsigned char> prev(stride, 0), cur(stride);
  image.rgba.resize(static_cast<std::size_t>(image.width) * image.height * 4);
  for (int y = 0; y < image.height; ++y) {
    const unsigned char* line = &raw[y * (stride + 1)];
    const int filter = line[0];
    for (std::size_t x = 0; x < stride; ++x) {
      const int a = x >= static_cast<std::size_t>(channels) ? cur[x - channels] : 0;
      const int b = prev[x];
      const int c = x >= static_cast<std::size_t>(channels) ? prev[x - channels] : 0;
      int v = line[1 + x];
      switch (filter) {
        case 1:
          v += a;
          break;
        case 2:
          v += b;
          break;
        case 3:
          v += (a + b) / 2;
          break;
        case 4: {
          const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          v += (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default:
          break;
      }
      cur[x] = static_cast<unsigned char>(v);
    }
    for (int x = 0; x < image.width; ++x) {
      for (int k = 0; k < 4; ++k) {
        image.rgba[(static_cast<std::size_t>(y) * image.width + x) * 4 + k] =
            k < channels ? cur[x * channels + k] : 255;
      }
    }
    std::swap(prev, cur);
  }
  return image;
}

// Pixels of the trace colour (#1565c0), with a little tolerance for antialiasing.
std::int64_t TracePixels(const Image& image) {
  std::int64_t n = 0;
  for (std::size_t i = 0; i + 3 < image.rgba.size(); i += 4) {
    if (std::abs(image.rgba[i] - 0x15) < 12 && std::abs(image.rgba[i + 1] - 0x65) < 12 &&
        std::abs(image.rgba[i + 2] - 0xc0) < 12) {
      ++n;
    }
  }
  return n;
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(ViewBrowser, ChromiumIsInstalled) {
  int status = 0;
  const std::string version = Capture(std::string(TIMEF_CHROMIUM) + " --version 2>&1", &status);
  EXPECT_EQ(status, 0) << TIMEF_CHROMIUM << " is missing: run scripts/setup-deps.sh";
}

TEST(ViewBrowser, DemoPagesHoldCardSignalsAndAnnotationsAndPlotATrace) {
  testing::ScratchDir scratch;
  // The hello-world demo with a hostile annotation on its ECG record.
  std::unique_ptr<model::Dataset> dataset = demo::BuildHelloWorld();
  for (const auto& record : dataset->records()) {
    if (record->id() == demo::kEcgRecordId) {
      record->Annotate(std::make_shared<model::AnnotationContent>(
                           "hostile", model::AnnotationValue::OfText(kHostile)),
                       model::TimeInterval{30'000'000, 40'000'000});
    }
  }
  WriteOptions options = demo::HelloWorldWriteOptions();
  options.compression_level = 3;
  const fs::path release =
      WriteRelease(*dataset, demo::HelloWorldCard(), scratch.path() / "registry", options)
          .release_dir;
  ViewProcess server(release);
  ASSERT_EQ(server.url().rfind("http://127.0.0.1:", 0), 0u)
      << "first stdout line: " << server.url();
  Browser browser(scratch.path());

  const std::string home = browser.Dom(server.url());
  EXPECT_TRUE(Contains(home, "data-ready=\"1\"")) << home;
  EXPECT_TRUE(Contains(home, "TimeF hello world")) << home;  // the card's name
  EXPECT_TRUE(Contains(home, "CC-BY-4.0"));
  EXPECT_TRUE(Contains(home, "cardiology"));
  EXPECT_TRUE(Contains(home, "href=\"/records/1\""));  // the records list
  EXPECT_TRUE(Contains(home, "lead_II"));

  const std::string record =
      browser.Dom(server.url() + "records/" + std::to_string(demo::kEcgRecordId));
  EXPECT_TRUE(Contains(record, "data-ready=\"1\"")) << record;
  EXPECT_TRUE(Contains(record, "Record 1"));
  for (const char* signal : {"lead_I", "lead_II", "rhythm", "lead_off"}) {
    EXPECT_TRUE(Contains(record, signal)) << signal;
  }
  for (const char* label : {"episode = af", "beat = 1", "artifact = true", "r_peak"}) {
    EXPECT_TRUE(Contains(record, label)) << label;
  }
  EXPECT_TRUE(Contains(record, "data-buckets=")) << "no plot received its data";
  // The hostile value is text: escaped in the serialized DOM, no element made of it, the script
  // it carries never ran.
  EXPECT_TRUE(Contains(record, "hostile = &lt;img src=x onerror=document.title='pwned'&gt;"));
  EXPECT_FALSE(Contains(record, "<img"));
  EXPECT_FALSE(Contains(record, "pwned</title>"));
  EXPECT_TRUE(Contains(record, "href=\"/tasks/1\""));  // the tasks that use the record

  const std::string task = browser.Dom(server.url() + "tasks/1");
  EXPECT_TRUE(Contains(task, "Task 1 (classification)")) << task;
  EXPECT_TRUE(Contains(task, "Decide which rhythm dominates"));

  const fs::path png = scratch.path() / "record.png";
  browser.Screenshot(server.url() + "records/" + std::to_string(demo::kEcgRecordId), png);
  const Image image = ReadPng(png);
  ASSERT_EQ(image.width, 1200) << "unreadable screenshot " << png;
  EXPECT_GT(TracePixels(image), 5000) << "no plotted trace in " << png;
  if (const char* copy = std::getenv("TIMEF_VIEW_SCREENSHOT")) {
    fs::copy_file(png, copy, fs::copy_options::overwrite_existing);
  }
  EXPECT_EQ(server.Stop(), 0);
}

TEST(ViewBrowser, ABlankPageHasNoTrace) {
  // The pixel check can fail: a page without signals has no pixel of the trace colour.
  testing::ScratchDir scratch;
  model::Dataset dataset("test/blank", "1.0.0");
  dataset.AddRecord()->AddSource("empty");
  manifest::Card card;
  card.name = "Blank";
  card.description = "no signals";
  card.license = manifest::License::kCcBy4_0;
  WriteOptions options;
  options.compression_level = 3;
  ViewProcess server(WriteRelease(dataset, card, scratch.path(), options).release_dir);
  Browser browser(scratch.path());
  const fs::path png = scratch.path() / "blank.png";
  browser.Screenshot(server.url() + "records/1", png);
  const Image image = ReadPng(png);
  ASSERT_EQ(image.width, 1200);
  EXPECT_EQ(TracePixels(image), 0);
}

}  // namespace
}  // namespace timef::view
