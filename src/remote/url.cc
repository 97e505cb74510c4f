#include "remote/url.h"

#include <algorithm>
#include <cctype>

#include "timef/error.h"

namespace timef::remote {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && Lower(text.substr(0, prefix.size())) == prefix;
}

// The text up to the query and fragment, without userinfo: safe to show even when Parse fails.
std::string RoughRedaction(std::string_view text) {
  text = text.substr(0, std::min(text.find('?'), text.find('#')));
  const auto scheme_end = text.find("://");
  if (scheme_end == std::string_view::npos) return std::string(text);
  const auto rest = text.substr(scheme_end + 3);
  const auto at = rest.substr(0, rest.find('/')).rfind('@');
  if (at == std::string_view::npos) return std::string(text);
  return std::string(text.substr(0, scheme_end + 3)) + std::string(rest.substr(at + 1));
}

[[noreturn]] void Bad(std::string_view text, const std::string& problem) {
  throw ValidationError({.object = "URL", .where = RoughRedaction(text)}, problem);
}

}  // namespace

bool IsUrl(std::string_view text) {
  return StartsWithNoCase(text, "http://") || StartsWithNoCase(text, "https://") ||
         StartsWithNoCase(text, "s3://");
}

Url Url::Parse(std::string_view text) {
  for (unsigned char c : text) {
    if (c <= 0x20 || c == 0x7f) Bad(text, "a URL holds no spaces or control characters");
  }
  Url url;
  const auto scheme_end = text.find("://");
  if (scheme_end == std::string_view::npos) Bad(text, "not an http://, https:// or s3:// URL");
  url.scheme = Lower(text.substr(0, scheme_end));
  if (url.scheme != "http" && url.scheme != "https" && url.scheme != "s3") {
    Bad(text, "scheme '" + url.scheme + "' is not http, https or s3");
  }
  std::string_view rest = text.substr(scheme_end + 3);
  if (const auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
  if (const auto q = rest.find('?'); q != std::string_view::npos) {
    url.query = std::string(rest.substr(q + 1));
    rest = rest.substr(0, q);
  }
  const auto slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  url.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
    url.userinfo = std::string(authority.substr(0, at));
    authority = authority.substr(at + 1);
  }
  if (authority.empty()) Bad(text, "the URL names no host");
  if (url.scheme == "s3") {
    // The authority is a bucket name (S3's rules for new buckets): 3 to 63 of a-z 0-9 . -,
    // starting and ending with a letter or digit.
    const auto ok = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (!url.userinfo.empty())
      Bad(text, "an s3:// URL carries no credentials (AWS_* variables do)");
    if (authority.size() < 3 || authority.size() > 63 || !ok(authority.front()) ||
        !ok(authority.back()) || !std::all_of(authority.begin(), authority.end(), [&](char c) {
          return ok(c) || c == '.' || c == '-';
        })) {
      Bad(text, "bucket '" + std::string(authority) +
                    "' is not 3 to 63 of a-z, 0-9, '.' and '-' starting and ending with a letter "
                    "or digit");
    }
    url.authority = std::string(authority);
    return url;
  }
  // A port after the host (after a bracketed IPv6 literal's ']').
  const auto bracket = authority.rfind(']');
  const auto colon = authority.rfind(':');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    const std::string_view port = authority.substr(colon + 1);
    if (colon == 0) Bad(text, "the URL names no host");
    if (port.empty() || port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoi(std::string(port)) < 1 || std::stoi(std::string(port)) > 65535) {
      Bad(text, "port '" + std::string(port) + "' is not a number from 1 to 65535");
    }
  }
  url.authority = std::string(authority);
  return url;
}

std::string Url::Full() const {
  std::string out = scheme + "://";
  if (!userinfo.empty()) out += userinfo + "@";
  out += authority + path;
  if (!query.empty()) out += "?" + query;
  return out;
}

std::string Url::Redacted() const { return scheme + "://" + authority + path; }

Url Url::Join(std::string_view relative) const {
  std::string_view rest = relative;
  if (rest.empty()) {
    throw ValidationError({.object = "URL", .where = Redacted()}, "empty relative path");
  }
  while (!rest.empty()) {
    const auto slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    if (part.empty() || part == "." || part == "..") {
      throw ValidationError({.object = "URL", .where = Redacted()},
                            "relative path '" + std::string(relative) +
                                "' is empty, absolute or leaves the directory");
    }
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  }
  Url out = *this;
  if (!out.path.ends_with('/')) out.path += '/';
  out.path += relative;
  return out;
}

std::string RedactedUrl(std::string_view text) {
  if (!IsUrl(text)) return std::string(text);
  return RoughRedaction(text);
}

}  // namespace timef::remote
