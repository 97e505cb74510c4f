// s3:// URLs (docs/remote.md "S3"): where an object of a bucket is requested, how requests are
// signed, and the ListObjectsV2 answers timef reads to list a registry on S3.
//
// An s3:// URL is a remote::Url whose scheme is "s3", whose authority is the bucket and whose path
// is "/" + the key. The transport (HttpClient) turns it into the http(s) URL of the endpoint
// (S3RequestUrl) and signs each request with SigV4 (libcurl's CURLOPT_AWS_SIGV4) when
// credentials are set.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "remote/url.h"

namespace timef::remote {

// What a PUT of an object sends so that the server can check its body.
struct ObjectDigests {
  std::string md5_hex;     // 32 lowercase hex
  std::string md5_base64;  // Content-MD5
  std::string sha256_hex;  // x-amz-content-sha256, 64 lowercase hex
  std::uint64_t size = 0;

  static ObjectDigests Of(std::span<const std::byte> bytes);
  // Reads the whole file (FileError naming it).
  static ObjectDigests OfFile(const std::filesystem::path& file);
};

// True when `text` starts with "s3://" (case-insensitive scheme).
bool IsS3Url(std::string_view text);

// The S3 settings of the environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
// AWS_SESSION_TOKEN; AWS_REGION, else AWS_DEFAULT_REGION, else us-east-1;
// AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL (an S3-compatible server, addressed path-style).
struct S3Config {
  std::string region = "us-east-1";
  std::string endpoint;  // "scheme://host[:port][/path]" without a trailing '/', or "" for AWS
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;

  // ValidationError naming the variable for an endpoint that is not an http(s) URL without
  // credentials and query, a region that is not [a-z0-9-]+, or one key of the pair without the
  // other.
  static S3Config FromEnvironment();
  // Requests are signed when a key pair is set; without one they go unsigned (a public bucket).
  bool Signed() const { return !access_key_id.empty(); }
};

// AWS's URI encoding: every byte but A-Z a-z 0-9 - . _ ~ as %XX (upper-case hex); '/' kept when
// `keep_slash` (an object key in a path), encoded otherwise (a query value).
std::string AwsUriEncode(std::string_view text, bool keep_slash);

// The http(s) URL that serves the s3:// URL `s3` (its query kept as it is): with an endpoint,
// "<endpoint>/<bucket>/<key>" (path-style); else "https://<bucket>.s3.<region>.amazonaws.com/<key>"
// (virtual-hosted), or path-style on s3.<region>.amazonaws.com for a bucket name with a dot.
std::string S3RequestUrl(const Url& s3, const S3Config& config);

// An s3:// URL's bucket and key ("" for the bucket's root), and the URL back from them.
struct S3Object {
  std::string bucket;
  std::string key;
  static S3Object FromUrl(const Url& s3);  // ValidationError for a URL that is not s3://
  Url ToUrl() const;
};

// ListObjectsV2 (GET /?list-type=2&prefix=...&delimiter=...&continuation-token=...): the query of
// one page, its parameters in the sorted, encoded form that SigV4's canonical request takes.
std::string ListObjectsV2Query(std::string_view prefix, std::string_view delimiter,
                               std::string_view continuation_token);

struct S3ListPage {
  struct Entry {
    std::string key;
    std::uint64_t size = 0;
  };
  std::vector<Entry> objects;         // <Contents>: keys under the prefix
  std::vector<std::string> prefixes;  // <CommonPrefixes><Prefix>: "directories" (with delimiter)
  bool truncated = false;             // <IsTruncated>true: fetch again with next_token
  std::string next_token;             // <NextContinuationToken>
};

// One ListObjectsV2 answer (a <ListBucketResult> document). FormatError naming `shown` for a
// document that is not well-formed XML (as far as these elements go), another root element, a
// <Size> that is not a number, a truncated page without a continuation token, or nesting deeper
// than 16 elements.
S3ListPage ParseListObjectsV2(std::string_view xml, const std::string& shown);

class HttpClient;

// Every page of ListObjectsV2 of `prefix` in `bucket` (with `delimiter` unless ""), merged:
// continuation tokens followed, at most 100,000 pages (FileError past that or when a token
// repeats). The transport's errors otherwise.
S3ListPage ListObjectsV2(HttpClient& client, const std::string& bucket, std::string_view prefix,
                         std::string_view delimiter);

// The <Code> of an S3 <Error> document ("NoSuchKey", "InvalidAccessKeyId", ...), "" when `body`
// is not one. Never throws.
std::string S3ErrorCode(std::string_view body);

}  // namespace timef::remote
