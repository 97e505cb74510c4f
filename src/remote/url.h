// http(s) URLs as timef takes them (docs/remote.md): where a remote release lives, and how a URL is
// named in messages, without its credentials or query string.
#pragma once

#include <string>
#include <string_view>

namespace timef::remote {

// True when `text` starts with "http://", "https://" or "s3://" (case-insensitive scheme).
bool IsUrl(std::string_view text);

struct Url {
  std::string scheme;     // "http", "https" or "s3", lower case
  std::string userinfo;   // "user:password" before '@', or ""
  std::string authority;  // host[:port] (a bracketed IPv6 host kept as written); s3: the bucket
  std::string path;       // from the first '/' after the authority, "/" when absent
  std::string query;      // after '?' without it (a fragment is dropped)

  // ValidationError naming the redacted text for: another scheme, an empty host, a control
  // character or space, a port that is not 1..65535; for s3://, a bucket name that breaks S3's
  // rules or user information.
  static Url Parse(std::string_view text);
  // scheme://[userinfo@]authority path[?query]: what is requested.
  std::string Full() const;
  // scheme://authority path: what messages show (no credentials, no query).
  std::string Redacted() const;
  // This URL with `relative` ('/'-separated, no "..", no leading '/') appended to its path as a
  // directory; the query is kept. ValidationError for a relative path that escapes.
  Url Join(std::string_view relative) const;
};

// `text` for messages: a URL without credentials and query; anything else unchanged.
std::string RedactedUrl(std::string_view text);

}  // namespace timef::remote
