{{/* Names, labels, the image, and the pod pieces every role shares. */}}

{{- define "cp.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "cp.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "cp.labels" -}}
{{ include "cp.selector" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{- define "cp.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/* The chart's own Secret holds whatever the values give; existing Secrets are referenced as they are. */}}
{{- define "cp.secretRef" -}}
valueFrom:
  secretKeyRef:
    name: {{ .name | default (printf "%s-env" (include "cp.fullname" .root)) }}
    key: {{ .key }}
{{- end -}}

{{- define "cp.validate" -}}
{{- if not (or .Values.secrets.existingSecret (and .Values.secrets.secretKey .Values.secrets.fieldEncryptionKey)) -}}
{{- fail "set secrets.existingSecret, or both secrets.secretKey and secrets.fieldEncryptionKey" -}}
{{- end -}}
{{- if not (or .Values.database.existingSecret .Values.database.url) -}}
{{- fail "set database.url (postgres://...) or database.existingSecret" -}}
{{- end -}}
{{- if not (or .Values.redis.existingSecret (and .Values.redis.brokerUrl .Values.redis.cacheUrl)) -}}
{{- fail "set redis.existingSecret, or both redis.brokerUrl and redis.cacheUrl" -}}
{{- end -}}
{{- if and (hasPrefix "oci://" .Values.gatewayChart.ref) (not .Values.gatewayChart.version) (not (contains "@sha256:" .Values.gatewayChart.ref)) -}}
{{- fail "gatewayChart.version is required for an oci:// chart that is not pinned by digest" -}}
{{- end -}}
{{- include "cp.catalogStore.validate" . -}}
{{- end -}}

{{/* Pods that read or write catalog content: the API, the workers and the content server (HPA minimums). */}}
{{- define "cp.catalogStore.pods" -}}
{{- $api := ternary .Values.api.autoscaling.minReplicas .Values.api.replicas .Values.api.autoscaling.enabled -}}
{{- $worker := ternary .Values.worker.autoscaling.minReplicas .Values.worker.replicas .Values.worker.autoscaling.enabled -}}
{{- add $api $worker (ternary .Values.content.replicas 0 .Values.content.enabled) -}}
{{- end -}}

{{/* Where catalog content lives: "claim" (one shared volume) or "s3"; empty when neither is configured. */}}
{{- define "cp.catalogStore.kind" -}}
{{- $store := .Values.catalogStore -}}
{{- if or $store.claim.existing $store.claim.create -}}claim{{- else if $store.s3.bucket -}}s3{{- end -}}
{{- end -}}

{{- define "cp.catalogStore.claimName" -}}
{{- .Values.catalogStore.claim.existing | default (printf "%s-catalogs" (include "cp.fullname" .)) -}}
{{- end -}}

{{/*
The API and the workers are separate pods, so there are always at least two pods that share catalog content:
a store per pod (an emptyDir) cannot serve, and the chart refuses to render without a shared one.
*/}}
{{- define "cp.catalogStore.validate" -}}
{{- $store := .Values.catalogStore -}}
{{- $s3 := $store.s3 -}}
{{- $claimSet := or $store.claim.existing $store.claim.create -}}
{{- $s3Set := or $s3.bucket $s3.prefix $s3.endpointUrl $s3.region $s3.credentials.existingSecret $s3.caBundle.configMap (not $s3.verifyTls) (ne $s3.addressingStyle "auto") -}}
{{- if and $claimSet $s3Set -}}
{{- fail "set either catalogStore.claim or catalogStore.s3, not both" -}}
{{- end -}}
{{- if not (or $claimSet $s3Set) -}}
{{- fail (printf "catalog content is shared by %s pods (the API, the workers and any content server) and needs one store they all reach: set catalogStore.claim.existing (a ReadWriteMany claim), catalogStore.claim.create with catalogStore.claim.storageClassName (a ReadWriteMany storage class), or catalogStore.s3.bucket" (include "cp.catalogStore.pods" .)) -}}
{{- end -}}
{{- if and $store.claim.existing $store.claim.create -}}
{{- fail "set catalogStore.claim.existing or catalogStore.claim.create, not both" -}}
{{- end -}}
{{- if and $store.claim.create (not $store.claim.storageClassName) -}}
{{- fail "catalogStore.claim.create needs catalogStore.claim.storageClassName: a storage class that provisions ReadWriteMany volumes" -}}
{{- end -}}
{{- with $store.claim.existing -}}
{{- $found := lookup "v1" "PersistentVolumeClaim" $.Release.Namespace . -}}
{{- if and $found (not (has "ReadWriteMany" ($found.spec.accessModes | default list))) -}}
{{- fail (printf "catalogStore.claim.existing: claim %q is %s, but %s pods mount it: use a ReadWriteMany claim, or catalogStore.s3" . (join "," $found.spec.accessModes) (include "cp.catalogStore.pods" $)) -}}
{{- end -}}
{{- end -}}
{{- if and $s3Set (not $s3.bucket) -}}
{{- fail "catalogStore.s3 is set without catalogStore.s3.bucket: set the bucket, or unset catalogStore.s3" -}}
{{- end -}}
{{- if and $s3.caBundle.configMap (not $s3.verifyTls) -}}
{{- fail "catalogStore.s3.caBundle.configMap is set but catalogStore.s3.verifyTls is false: unset one of them" -}}
{{- end -}}
{{- if and (hasPrefix "http://" $s3.endpointUrl) (or $s3.caBundle.configMap (not $s3.verifyTls)) -}}
{{- fail "catalogStore.s3.endpointUrl is plain http: unset catalogStore.s3.verifyTls and catalogStore.s3.caBundle, or use https" -}}
{{- end -}}
{{- end -}}

{{/* The catalog store's environment, for the pods that read or write content. */}}
{{- define "cp.catalogStore.env" -}}
{{- if eq (include "cp.catalogStore.kind" .) "s3" -}}
{{- $s3 := .Values.catalogStore.s3 -}}
- name: CATALOG_STORE
  value: s3
- name: CATALOG_S3_BUCKET
  value: {{ $s3.bucket | quote }}
{{- with $s3.prefix }}
- name: CATALOG_S3_PREFIX
  value: {{ . | quote }}
{{- end }}
{{- with $s3.endpointUrl }}
- name: CATALOG_S3_ENDPOINT_URL
  value: {{ . | quote }}
{{- end }}
{{- with $s3.region }}
- name: CATALOG_S3_REGION
  value: {{ . | quote }}
{{- end }}
- name: CATALOG_S3_ADDRESSING_STYLE
  value: {{ $s3.addressingStyle | quote }}
{{- if not $s3.verifyTls }}
- name: CATALOG_S3_VERIFY_TLS
  value: "false"
{{- end }}
{{- with $s3.caBundle.configMap }}
- name: CATALOG_S3_CA_BUNDLE
  value: /etc/controlplane/catalog-s3-ca/ca-bundle.pem
{{- end }}
{{- with $s3.credentials.existingSecret }}
- name: CATALOG_S3_ACCESS_KEY_ID
  {{- include "cp.secretRef" (dict "root" $ "name" . "key" $s3.credentials.accessKeyIdKey) | nindent 2 }}
- name: CATALOG_S3_SECRET_ACCESS_KEY
  {{- include "cp.secretRef" (dict "root" $ "name" . "key" $s3.credentials.secretAccessKeyKey) | nindent 2 }}
{{- end }}
{{- end -}}
{{- end -}}

{{/* Environment of every container: secrets by reference, settings from values. */}}
{{- define "cp.env" -}}
- name: POD_IP
  valueFrom:
    fieldRef:
      fieldPath: status.podIP
- name: SECRET_KEY
  {{- include "cp.secretRef" (dict "root" . "name" .Values.secrets.existingSecret "key" "SECRET_KEY") | nindent 2 }}
- name: FIELD_ENCRYPTION_KEY
  {{- include "cp.secretRef" (dict "root" . "name" .Values.secrets.existingSecret "key" "FIELD_ENCRYPTION_KEY") | nindent 2 }}
- name: DATABASE_URL
  {{- include "cp.secretRef" (dict "root" . "name" .Values.database.existingSecret "key" (ternary .Values.database.existingSecretKey "DATABASE_URL" (ne .Values.database.existingSecret ""))) | nindent 2 }}
- name: CELERY_BROKER_URL
  {{- include "cp.secretRef" (dict "root" . "name" .Values.redis.existingSecret "key" (ternary .Values.redis.brokerUrlKey "CELERY_BROKER_URL" (ne .Values.redis.existingSecret ""))) | nindent 2 }}
- name: CACHE_URL
  {{- include "cp.secretRef" (dict "root" . "name" .Values.redis.existingSecret "key" (ternary .Values.redis.cacheUrlKey "CACHE_URL" (ne .Values.redis.existingSecret ""))) | nindent 2 }}
- name: ALLOWED_HOSTS
  value: {{ join "," (concat (list "$(POD_IP)" "localhost" "127.0.0.1") .Values.api.allowedHosts) | quote }}
{{- with (ternary .Values.content.publicUrl "" .Values.content.enabled) | default .Values.api.publicUrl }}
- name: CATALOG_BASE_URL
  value: {{ . | quote }}
{{- end }}
{{- with .Values.api.publicUrl }}
- name: CSRF_TRUSTED_ORIGINS
  value: {{ . | quote }}
{{- end }}
- name: GATEWAY_CHART
  value: {{ .Values.gatewayChart.ref | quote }}
- name: GATEWAY_CHART_VERSION
  value: {{ .Values.gatewayChart.version | quote }}
{{- range $name, $value := .Values.env }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}

{{/* Pod-level settings shared by every role (the migration hook runs before the ServiceAccount exists). */}}
{{- define "cp.podSpec" -}}
automountServiceAccountToken: false
{{- if not .hook }}
serviceAccountName: {{ include "cp.fullname" .root }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* The container of one role: `args` are the entrypoint's (role first). */}}
{{- define "cp.container" -}}
- name: {{ .component }}
  image: {{ include "cp.image" .root }}
  imagePullPolicy: {{ .root.Values.image.pullPolicy }}
  args: {{ toJson .args }}
  env:
    {{- include "cp.env" .root | nindent 4 }}
    {{- if .catalogs }}
    {{- include "cp.catalogStore.env" .root | nindent 4 }}
    {{- end }}
    {{- range $name, $value := .env }}
    - name: {{ $name }}
      value: {{ $value | quote }}
    {{- end }}
  securityContext:
    {{- toYaml .root.Values.containerSecurityContext | nindent 4 }}
  {{- with .resources }}
  resources:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  volumeMounts:
    - name: tmp
      mountPath: /tmp
    - name: state
      mountPath: /var/lib/controlplane
    {{- if .catalogs }}
    {{- if eq (include "cp.catalogStore.kind" .root) "claim" }}
    - name: catalogs
      mountPath: /var/lib/controlplane/catalogs
    {{- else if .root.Values.catalogStore.s3.caBundle.configMap }}
    - name: catalog-s3-ca
      mountPath: /etc/controlplane/catalog-s3-ca
      readOnly: true
    {{- end }}
    {{- end }}
    {{- if .metrics }}
    - name: metrics
      mountPath: /run/metrics
    {{- end }}
{{- end -}}

{{/* Writable volumes: the root filesystem is read-only. */}}
{{- define "cp.volumes" -}}
- name: tmp
  emptyDir: {}
- name: state
  emptyDir: {}
{{- if .catalogs }}
{{- if eq (include "cp.catalogStore.kind" .root) "claim" }}
- name: catalogs
  persistentVolumeClaim:
    claimName: {{ include "cp.catalogStore.claimName" .root }}
{{- else }}
{{- with .root.Values.catalogStore.s3.caBundle }}
{{- if .configMap }}
- name: catalog-s3-ca
  configMap:
    name: {{ .configMap }}
    items:
      - key: {{ .key }}
        path: ca-bundle.pem
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- if .metrics }}
- name: metrics
  emptyDir:
    medium: Memory
{{- end }}
{{- end -}}
