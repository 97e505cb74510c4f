// libFuzzer target: the release URL parser (src/remote/url.h, docs/remote.md) and the registry ref
// parser (RegistryRef, include/timef/ids.h). Any input either raises a timef::ValidationError or
// parses into parts that keep their promises: an http, https or s3 scheme, a non-empty host (for
// s3, a bucket name of a-z 0-9 . - whose request URL is an http(s) URL with the key encoded), a
// redacted form with neither credentials nor query, and a join that refuses paths leaving the
// directory. RedactedUrl never shows what follows '?' or precedes '@'. A ref parses only as
// `org/name` or `org/name@x.y.z`, and its text is its canonical form.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "remote/s3.h"
#include "remote/url.h"
#include "timef/error.h"
#include "timef/ids.h"

namespace {

// The whole input as a ref: TryParse and Parse agree, and a parsed ref prints back as the input
// (versions have no leading zeros, so the form is canonical) with a valid dataset ID.
void CheckRef(std::string_view text) {
  const std::optional<timef::RegistryRef> ref = timef::RegistryRef::TryParse(text);
  bool thrown = false;
  try {
    timef::RegistryRef::Parse(text);
  } catch (const timef::ValidationError&) {
    thrown = true;
  }
  if (thrown == ref.has_value()) std::abort();
  if (!ref) return;
  if (!timef::IsValidDatasetId(ref->dataset_id) || ref->ToString() != text) std::abort();
  if (ref->version.has_value() != timef::ReleaseRef::TryParse(text).has_value()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  CheckRef(text);
  // The input is "<url>\n<relative path>" (the path optional).
  const std::size_t newline = text.find('\n');
  const std::string_view url_text = text.substr(0, newline);
  const std::string_view relative =
      newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  const std::string redacted = timef::remote::RedactedUrl(url_text);
  if (timef::remote::IsUrl(url_text) && redacted.find('?') != std::string::npos) std::abort();
  try {
    const timef::remote::Url url = timef::remote::Url::Parse(url_text);
    if (url.scheme != "http" && url.scheme != "https" && url.scheme != "s3") std::abort();
    if (url.scheme == "s3") {
      if (!url.userinfo.empty()) std::abort();
      for (const char c : url.authority) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')) {
          std::abort();
        }
      }
      timef::remote::S3Config config;
      const std::string request = timef::remote::S3RequestUrl(url, config);
      if (!request.starts_with("https://")) std::abort();
      const std::string path = request.substr(0, request.find('?'));
      for (const char c : path.substr(8)) {
        if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
          std::abort();
        }
      }
    }
    if (url.authority.empty() || url.path.empty() || url.path.front() != '/') std::abort();
    const std::string shown = url.Redacted();
    if (shown.find('?') != std::string::npos) std::abort();
    if (!url.userinfo.empty() && shown.starts_with(url.scheme + "://" + url.userinfo + "@")) {
      std::abort();
    }
    try {
      const timef::remote::Url joined = url.Join(relative);
      // What the join appended: no segment that is empty, "." or "..".
      const std::string added = "/" + joined.path.substr(joined.path.size() - relative.size());
      if (added.find("/../") != std::string::npos || added.ends_with("/..") ||
          added.find("//") != std::string::npos || added.find("/./") != std::string::npos ||
          added.ends_with("/.") || relative.empty()) {
        std::abort();
      }
    } catch (const timef::ValidationError&) {
    }
  } catch (const timef::ValidationError&) {
  }
  return 0;
}
