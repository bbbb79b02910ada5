-- AlterTable
ALTER TABLE "AnnotationQueueItem" ADD COLUMN     "reviewNote" TEXT,
ADD COLUMN     "reviewState" TEXT NOT NULL DEFAULT 'pending',
ADD COLUMN     "reviewedAt" TIMESTAMPTZ(3),
ADD COLUMN     "reviewedById" UUID;
